"""Where the suite is installed: its checkout's folders and files, found without importing any of them."""
