"""Publishing's writes on the public site: keys created and revoked, a copy handed over.

A key is made of `secrets.token_urlsafe` and shown once: the site keeps its SHA-256
(`key_digest`), so a stolen database does not publish. Each write is logged
(`log.services.action_record`) in its own transaction. The batches themselves are applied
by `publishing.interchange` (they go through the tournament import).
"""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.log.services import Kind, action_record, check_once
from tournaments.models import Club, PublishingKey, PublishingState, Venue
from tournaments.versions import version_bump

KEY_PREFIX = "skp_"


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name or len(name) > 120:
        raise UserError(_("Give the key a name of 1 to 120 characters."), field="name")
    return name


def key_create(
    *,
    name: str,
    club: Club | None = None,
    venue: Venue | None = None,
    user=None,
    once: str | None = None,
) -> tuple[PublishingKey, str]:
    """A new key for a club, or for one venue of a league's match day; returns the key row
    and the key itself (shown once, never stored)."""
    name = _clean_name(name)
    if (club is None) == (venue is None):
        raise ValueError("a key is a club's or a venue's")
    league = None
    if venue is not None:
        season = venue.tournament.season
        league = season.league if season is not None else None
        if league is None:
            raise UserError(_("Only a league's match day has venue keys."))
    raw = KEY_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        check_once(once)
        key = PublishingKey.objects.create(
            name=name,
            digest=key_digest(raw),
            prefix=raw[: len(KEY_PREFIX) + 4],
            club=club,
            league=league,
            venue=venue,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        action_record(
            tournament=venue.tournament if venue is not None else None,
            club=club,
            league=league,
            kind=Kind.PUBLISHING_KEY_CREATED,
            user=user,
            details={"key": key.pk, "name": name, "prefix": key.prefix},
            key=once,
        )
    return key, raw


def key_revoke(*, key: PublishingKey, user=None) -> PublishingKey:
    """The key publishes no more (a revoked key stays listed, with who revoked it)."""
    with transaction.atomic():
        key = PublishingKey.objects.select_for_update().get(pk=key.pk)
        if key.revoked_at is not None:
            return key
        key.revoked_at = timezone.now()
        key.revoked_by = user if user is not None and user.is_authenticated else None
        key.save(update_fields=["revoked_at", "revoked_by"])
        action_record(
            tournament=key.venue.tournament if key.venue_id else None,
            club=key.club,
            league=key.league,
            kind=Kind.PUBLISHING_KEY_REVOKED,
            user=user,
            details={"key": key.pk, "name": key.name, "prefix": key.prefix},
        )
    return key


def key_of(raw: str | None) -> PublishingKey | None:
    """The key row of a key as sent, revoked or not; None when unknown."""
    if not raw:
        return None
    return (
        PublishingKey.objects.select_related("club", "league", "venue__tournament")
        .filter(digest=key_digest(raw))
        .first()
    )


def publishing_hand_over(*, state: PublishingState, user=None, once: str | None = None):
    """The director takes the copy over: publishing stops (batches are refused) and the
    tournament is written here again."""
    with transaction.atomic():
        check_once(once)
        state = PublishingState.objects.select_for_update().get(pk=state.pk)
        if state.handed_over_at is not None:
            return state
        state.handed_over_at = timezone.now()
        state.handed_over_by = user if user is not None and user.is_authenticated else None
        state.save(update_fields=["handed_over_at", "handed_over_by"])
        if state.tournament_id is not None:
            # The pages say "live from the hall" no more: their cached copies move on.
            version_bump(tournament_id=state.tournament_id)
        action_record(
            tournament=state.tournament,
            kind=Kind.HANDED_OVER,
            user=user,
            details={"slug": state.slug, "hall": state.hall, "version": state.version},
            key=once,
        )
    return state
