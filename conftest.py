"""Registers the bpe-kata pytest plugin for every run started in this repository."""

pytest_plugins = ["bpe_kata.plugin"]
