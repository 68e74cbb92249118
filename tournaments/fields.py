"""Form fields that offer user text to choose from (a player, a club, a team, a match day
by name), each label isolated from the text around it (`formats.bdi`, `formats.isolated`):
a right-to-left override in a name reorders nothing after it."""

from django import forms

from tournaments.formats import bdi, isolated


class NameChoiceField(forms.ModelChoiceField):
    """A select: its <option>s hold plain text, isolated between FSI and PDI."""

    def label_from_instance(self, obj):
        return isolated(str(obj))


class NamesChoiceField(forms.ModelMultipleChoiceField):
    """Checkboxes: each label's name in a <bdi>."""

    def label_from_instance(self, obj):
        return bdi(str(obj))
