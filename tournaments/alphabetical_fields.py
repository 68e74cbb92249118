"""Model choice fields listed A–Z the German way (`tournaments.collation`): the forms'
selects and boxes of players, clubs and teams. The databases' own order puts Öztürk after
Zimmermann; these fields keep their queryset for validation and only list it in order."""

from django.forms.models import ModelChoiceIterator

from tournaments.collation import alphabetical


class AlphabeticalIterator(ModelChoiceIterator):
    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for obj in alphabetical(self.queryset, key=self.field.label_from_instance):
            yield self.choice(obj)


def list_alphabetically(*fields):
    """List these model choice fields (of one form instance) A–Z by their labels."""
    for field in fields:
        field.iterator = AlphabeticalIterator
        field.widget.choices = field.choices
