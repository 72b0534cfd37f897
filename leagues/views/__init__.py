"""Views of the leagues app, one module per area. Thin: forms in, services out."""
