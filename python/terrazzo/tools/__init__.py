"""Host-side tools, as `triton.tools`."""
