"""Views: `public` (read-only pages), `manage` (secretaries), `sheet` (score entry)."""
