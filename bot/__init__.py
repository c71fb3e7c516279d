"""The process around the rules: storage, service, rendering and the Discord client."""
