"""Both ends of the stdio protocol: the client the verdict process calls through, the server the child runs,
the values between them, and how a child is started and confined."""
