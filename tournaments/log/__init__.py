"""The tournament's action log: every director action, who, when, what and why."""
