"""The isolated child: the stdio protocol, its server and client, the sandbox and the supervisor."""
