# Voilà on its own (`make app`) reads voila.py, not jupyter_server_config.py: the same kernel settings.
load_subconfig("jupyter_server_config.py")  # noqa: F821 (provided by traitlets when Voilà loads this file)
