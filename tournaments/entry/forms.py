"""Forms of entry at the table: what a phone sends with each row, and the director's choices.

The row itself is a `sheets.forms.GameRowForm`, as on the secretary's screen; `RowSendForm`
only carries the phone's id of the row (`client_id`, so that a row sent twice is entered
once) and the game number the phone meant.
"""

from django import forms
from django.utils.translation import gettext_lazy as _


class RowSendForm(forms.Form):
    client_id = forms.UUIDField(label=_("row id"))
    # Required: the number is what tells a row meant for a game entered meanwhile.
    number = forms.IntegerField(label=_("game"), min_value=1)


class SettleForm(forms.Form):
    """Which copy's version of a row (of every unsettled row without `number`) counts."""

    choose = forms.ChoiceField(choices=[("first", _("first copy")), ("second", _("second copy"))])
    number = forms.IntegerField(min_value=1, required=False)


class LinkActionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("issue", _("issue")), ("reissue", _("reissue")), ("revoke", _("revoke"))]
    )
    keeper = forms.TypedChoiceField(
        choices=[("", "—"), ("1", "1"), ("2", "2")], coerce=int, empty_value=None, required=False
    )
