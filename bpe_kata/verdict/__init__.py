"""What a run decides, in the verdict process: outcomes, judging, root causes, teaching lines and reports.
Nothing here is pytest's hooks or fixtures (``run/``); it reads what they recorded."""
