"""The web app and HTTP API: server-rendered pages (Jinja2, one stylesheet, no JavaScript build) and a JSON API with
the CLI's shapes, both thin over the core. ``dinecheck serve`` runs it; :func:`create_app` builds it (tests use it
in-process)."""
