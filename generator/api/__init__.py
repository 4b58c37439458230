"""Response builders, one module per endpoint, and the one `render()` every response comes from."""
