# Jupyter Server settings for the app on Binder (binder/start puts this folder on JUPYTER_CONFIG_PATH) and for
# `make app` (voila.py below loads this file). Read by Jupyter itself at start-up; no user file is read here.
#
# A Voilà page holds one kernel (the app, ~130 MB). Without culling, every visit's kernel stays after its tab is
# closed, and a class fills a 2 GB Binder pod within minutes. A kernel with no page connected and idle for
# two minutes is shut down; a page that is open is never culled, however long its visitor thinks.
from typing import Any

c = get_config()  # noqa: F821 (provided by traitlets when Jupyter loads this file)
c.MappingKernelManager.cull_idle_timeout = 120  # seconds idle, with no page connected, before a kernel is shut down
c.MappingKernelManager.cull_interval = 30  # how often to look
c.MappingKernelManager.cull_connected = False  # an open page keeps its kernel
c.MappingKernelManager.cull_busy = False  # a kernel still computing (a review, bots playing on) is left alone


# A page that is left (closed, reloaded) asks the server to shut its kernel down at once: Voilà's page posts
# /voila/api/shutdown/KERNEL with the `_xsrf` cookie's value as its XSRF token. Voilà's page handler never issues that
# cookie, so the post went out with an empty token, was refused ("403 POST /voila/api/shutdown/...: '_xsrf' argument
# missing from POST") and the kernel lived on until the cull. Voilà calls this hook with the page's request handler
# before the page is written; asking the handler for its XSRF token makes it set the `_xsrf` cookie on that response,
# the server's own token (path, flags and the JupyterHub variant as the server issues it), so the check stays on.
def issue_xsrf_cookie(handler: Any, notebook: Any, cwd: str) -> None:
    """Have the page's response carry the server's `_xsrf` cookie; the notebook is left as it is (None)."""
    _token = handler.xsrf_token  # the property sets the cookie when it makes the token


c.VoilaConfiguration.prelaunch_hook = issue_xsrf_cookie

# plotly's own JupyterLab extension (its renderer of plotly's output type) would put another 4.8 MB copy of plotly.js
# on every Voilà page; the notebooks draw plotly as HTML, and the app's charts load plotly.js once as a static file
# (speicherstadt_lab/ui/chart_widget.py), so Voilà leaves that extension out.
c.VoilaConfiguration.extension_denylist = ["jupyterlab-plotly"]
