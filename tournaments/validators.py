"""The text validators, under the name the leagues' migrations reference.

They are defined once, in `tournaments.choices`; this module only names them again.
"""

from tournaments.choices import has_control_characters, validate_no_control_characters

__all__ = ["has_control_characters", "validate_no_control_characters"]
