"""The game server: tables as actors, the WebSocket protocol, storage, the clock."""
