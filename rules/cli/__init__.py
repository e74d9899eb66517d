"""``python -m rules``: the command line (``main``), what a sub-command answers (``output``) and each system's
sub-commands (``<system>.py``, each with ``register``)."""
