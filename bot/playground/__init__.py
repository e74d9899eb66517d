"""The playground: rollkeeper's Discord stand-in (REST, gateway, the interaction protocol and Discord's limits) and
``python -m bot playground``, which runs the real bot against it and shows the channel in a browser tab."""
