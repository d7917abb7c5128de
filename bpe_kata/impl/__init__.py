"""Loading an implementation, in whichever process runs it: the loader, course shapes, and where its frames are.
The sandboxed child imports this floor and ``child/`` only."""
