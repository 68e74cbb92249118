"""Writes of the site's people: clubs and leagues created by the site administrator,
invitations to a role (created, withdrawn, accepted), roles revoked, links to set a new
password. Each write checks who may do it (`tournaments.permissions`) here, not only in the
views, and logs itself in the action log inside its own transaction.

Terms (`tournaments.accounts.models`): a *role* (club secretary, league director, venue
secretary) on a *target* (the club, league or venue). An invitation's *token* is the secret
part of its link: 32 random bytes, shown once; the database keeps its SHA-256 only. A
*password link* uses Django's own password-reset tokens (`default_token_generator`, valid
for `PASSWORD_RESET_TIMEOUT`, void once the password changes).

Who may give (invite or revoke) which role: the site administrator any; a club's secretary
the co-secretaries of their own club; a league's directors the secretaries of the venues of
their league's match days. Nobody revokes their own role (another secretary or the site
administrator does), and these pages never change who is a site administrator, so the last
one cannot be locked out here.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.accounts.models import Invitation, Role
from tournaments.accounts.selectors import roles_of
from tournaments.errors import UserError, check_text, validated
from tournaments.leagues.services import league_create, league_season_create
from tournaments.log.services import action_record, check_once
from tournaments.models import ActionLog, Club, League, Venue

Kind = ActionLog.Kind


def token_hash(token: str) -> str:
    """What the database keeps of an invitation's token."""
    return hashlib.sha256(str(token).encode()).hexdigest()


def _refuse(message=None):
    raise PermissionDenied(message or _("You may not give this role."))


def may_give(user, *, role: str, target) -> bool:
    """Whether `user` may invite to (or revoke) `role` on `target`."""
    if role == Role.CLUB_SECRETARY:
        return permissions.can_give_club_secretary(user, target)
    if role == Role.LEAGUE_DIRECTOR:
        return permissions.can_give_league_director(user, target)
    if role == Role.VENUE_SECRETARY:
        return permissions.can_give_venue_secretary(user, target)
    return False


def _target_fields(role: str, target) -> dict:
    """The invitation's field for `target`, or a plain error for a role and target that do
    not match (a broken invariant, not a user's mistake)."""
    expected = {
        Role.CLUB_SECRETARY: ("club", Club),
        Role.LEAGUE_DIRECTOR: ("league", League),
        Role.VENUE_SECRETARY: ("venue", Venue),
    }.get(role)
    if expected is None or not isinstance(target, expected[1]):
        raise ValueError(f"no role {role!r} on {target!r}")
    return {expected[0]: target}


def _place(target) -> tuple[Club | None, League | None]:
    """Whose log a people action on `target` is on: a club's (its secretaries), a league's
    (its directors and its venues' secretaries; a club season's venue: the club's)."""
    if isinstance(target, Club):
        return target, None
    if isinstance(target, League):
        return None, target
    if isinstance(target, Venue):
        season = target.tournament.season
        if season is not None and season.league_id is not None:
            return None, season.league
        return target.tournament.club, None
    return None, None


def _log(kind, *, user, role: str, target, details: dict, key: str | None = None):
    """A people action, on the log of the club or league of its target."""
    club, league = _place(target)
    if isinstance(target, Venue):
        details = {**details, "match_day": target.tournament.name}
    action_record(
        tournament=None,
        club=club,
        league=league,
        kind=kind,
        user=user,
        details={"role": role, "target": str(target), **details},
        key=key,
    )


def club_create(*, user, name: str, city: str = "", key: str | None = None) -> Club:
    """A new club (the site administrator)."""
    if not permissions.can_run_site(user):
        _refuse(_("Only the site administrator creates clubs."))
    check_text(name, field="name")
    check_text(city, field="city")
    with transaction.atomic():
        check_once(key)
        name = " ".join(name.split())
        if Club.objects.filter(name__iexact=name).exists():
            raise UserError(_("There is already a club named %(name)s.") % {"name": name})
        club = validated(Club(name=name, city=city.strip()))
        club.save()
        action_record(
            tournament=None,
            club=club,
            kind=Kind.CLUB_CREATED,
            user=user,
            details={"name": club.name},
            key=key,
        )
    return club


def league_add(*, user, name: str, clubs=(), key: str | None = None) -> League:
    """A new league of member `clubs` (the site administrator); its directors come by
    invitation."""
    if not permissions.can_run_site(user):
        _refuse(_("Only the site administrator creates leagues."))
    check_text(name, field="name")
    with transaction.atomic():
        check_once(key)
        name = " ".join(name.split())
        if League.objects.filter(name__iexact=name).exists():
            raise UserError(_("There is already a league named %(name)s.") % {"name": name})
        league = league_create(name=name, clubs=clubs)
        action_record(
            tournament=None,
            league=league,
            kind=Kind.LEAGUE_CREATED,
            user=user,
            details={"name": league.name, "clubs": [c.name for c in clubs]},
            key=key,
        )
    return league


def league_season_add(*, user, league: League, name: str, key: str | None = None):
    """A new season of the league (its directors), logged on the league's log; the same
    form sent twice (`key`) is a `Replay`."""
    if not permissions.can_direct_league(user, league):
        _refuse(_("Only the league's directors."))
    check_text(name, field="name")
    if not name.strip():
        raise UserError(_("Name the season."), field="name")
    with transaction.atomic():
        check_once(key)
        season = league_season_create(league=league, name=name)
        action_record(
            tournament=None,
            league=league,
            kind=Kind.SEASON_CREATED,
            user=user,
            details={"name": season.name},
            key=key,
        )
    return season


def invitation_create(
    *, user, role: str, target, email: str = "", key: str | None = None
) -> tuple[Invitation, str]:
    """A one-time link to `role` on `target`, valid for `INVITE_DAYS` days: the invitation
    and its token (to show once; only its hash is stored)."""
    fields = _target_fields(role, target)
    if not may_give(user, role=role, target=target):
        _refuse()
    email = (email or "").strip()
    with transaction.atomic():
        check_once(key)
        token = secrets.token_urlsafe(32)
        invitation = Invitation(
            role=role,
            token_hash=token_hash(token),
            email=email,
            created_by=user,
            expires_at=timezone.now() + datetime.timedelta(days=settings.INVITE_DAYS),
            **fields,
        )
        validated(invitation, exclude=["token_hash"])
        invitation.save()
        _log(
            Kind.INVITATION_CREATED,
            user=user,
            role=role,
            target=target,
            details={"email": email, "expires": invitation.expires_at},
            key=key,
        )
    return invitation, token


def invitation_withdraw(*, user, invitation: Invitation) -> Invitation:
    """A pending invitation's link stops working."""
    if not may_give(user, role=invitation.role, target=invitation.target):
        _refuse()
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.accepted_at is not None:
            raise UserError(_("This invitation was already accepted: revoke the role instead."))
        if invitation.withdrawn_at is not None:
            return invitation  # withdrawn twice: done once
        invitation.withdrawn_at = timezone.now()
        invitation.save(update_fields=["withdrawn_at"])
        _log(
            Kind.INVITATION_WITHDRAWN,
            user=user,
            role=invitation.role,
            target=invitation.target,
            details={"email": invitation.email},
        )
    return invitation


def invitation_of(token: str) -> Invitation:
    """The pending invitation of a link's token, or a UserError saying why it is not."""
    invitation = (
        Invitation.objects.select_related("club", "league", "venue__tournament")
        .filter(token_hash=token_hash(token))
        .first()
    )
    _check_pending(invitation)
    return invitation


def _check_pending(invitation: Invitation | None):
    if invitation is None:
        raise UserError(_("This invitation link is not valid. Ask for a new one."), code="unknown")
    if invitation.accepted_at is not None:
        raise UserError(
            _("This invitation link was already used. Sign in, or ask for a new one."),
            code="used",
        )
    if invitation.withdrawn_at is not None:
        raise UserError(
            _("This invitation was withdrawn. Ask for a new one if you still need it."),
            code="withdrawn",
        )
    if invitation.expires_at <= timezone.now():
        raise UserError(_("This invitation link has expired. Ask for a new one."), code="expired")


def _grant(role: str, target, person):
    if role == Role.CLUB_SECRETARY:
        target.secretaries.add(person)
    elif role == Role.LEAGUE_DIRECTOR:
        target.directors.add(person)
    else:
        Venue.objects.filter(pk=target.pk).update(secretary=person)


def _new_user(username: str, password: str, email: str):
    User = get_user_model()
    username = (username or "").strip()
    check_text(username, field="username")
    if not username:
        raise UserError(_("Choose a user name."), field="username")
    try:
        User._meta.get_field("username").run_validators(username)
    except ValidationError as error:
        raise UserError(" ".join(error.messages), field="username") from None
    if User.objects.filter(username__iexact=username).exists():
        raise UserError(
            _("The user name %(name)s is taken: choose another one.") % {"name": username},
            field="username",
        )
    try:
        password_validation.validate_password(password, User(username=username, email=email))
    except ValidationError as error:
        raise UserError(" ".join(error.messages), field="password") from None
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise UserError(
            _("The user name %(name)s is taken: choose another one.") % {"name": username},
            field="username",
        ) from None


def invitation_accept(*, token: str, user=None, username: str = "", password: str = ""):
    """The role of the invitation for the signed-in `user`, or for a new account of
    `username` and `password`; the link is used up. Returns the person.

    The invitation is locked first: a second copy of the same form waits, then finds the
    link used and is refused with a message (no second account, no error page)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update().filter(token_hash=token_hash(token)).first()
        )
        _check_pending(invitation)
        if user is not None and user.is_authenticated:
            person = user
        else:
            person = _new_user(username, password, invitation.email)
        target = invitation.target
        _grant(invitation.role, target, person)
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = person
        invitation.save(update_fields=["accepted_at", "accepted_by"])
        _log(
            Kind.INVITATION_ACCEPTED,
            user=person,
            role=invitation.role,
            target=target,
            details={"person": person.get_username()},
        )
    return person


def role_revoke(*, user, person, role: str, target) -> None:
    """`person` no longer has `role` on `target`."""
    _target_fields(role, target)
    if not may_give(user, role=role, target=target):
        _refuse()
    if person.pk == user.pk:
        raise UserError(
            _("You cannot revoke your own role: another secretary or the site administrator can.")
        )
    with transaction.atomic():
        if role == Role.CLUB_SECRETARY:
            held = target.secretaries.filter(pk=person.pk).exists()
            target.secretaries.remove(person)
        elif role == Role.LEAGUE_DIRECTOR:
            held = target.directors.filter(pk=person.pk).exists()
            target.directors.remove(person)
        else:
            held = Venue.objects.filter(pk=target.pk, secretary=person).update(secretary=None)
        if not held:
            return  # not (or no longer) theirs: a repeated request changes nothing
        _log(
            Kind.ROLE_REVOKED,
            user=user,
            role=role,
            target=target,
            details={"person": person.get_username()},
        )


def may_reset_password(user, person) -> bool:
    """The site administrator for anyone; another person only for someone all of whose
    roles they may give (a secretary for a co-secretary who has no other role), never for a
    site administrator."""
    if permissions.can_run_site(user):
        return True
    if person.is_superuser or person.is_staff or not user.is_authenticated:
        return False
    roles = roles_of(person)
    return bool(roles) and all(may_give(user, role=r.role, target=r.target) for r in roles)


def _place_of_person(person) -> tuple[Club | None, League | None]:
    """The log a person's password lines go on: that of their first role's club or league
    (the site log has them all)."""
    roles = roles_of(person)
    return _place(roles[0].target) if roles else (None, None)


def password_link_issue(*, user, person) -> tuple[str, str]:
    """The parts of a link to set a new password (uidb64, token): Django's password-reset
    token, void after `PASSWORD_RESET_TIMEOUT` or once the password changes."""
    if not may_reset_password(user, person):
        _refuse(_("You may not issue a password link for this person."))
    with transaction.atomic():
        club, league = _place_of_person(person)
        action_record(
            tournament=None,
            club=club,
            league=league,
            kind=Kind.PASSWORD_LINK,
            user=user,
            details={"person": person.get_username()},
        )
    return urlsafe_base64_encode(force_bytes(person.pk)), default_token_generator.make_token(
        person
    )


def password_set_record(*, person) -> None:
    """Log that `person` set a new password through a link (the password is not logged)."""
    with transaction.atomic():
        club, league = _place_of_person(person)
        action_record(
            tournament=None,
            club=club,
            league=league,
            kind=Kind.PASSWORD_SET,
            user=person,
            details={"person": person.get_username()},
        )


def link_mail(*, email: str, subject: str, link: str, text: str) -> bool:
    """Mail a link when an e-mail server is configured (`EMAIL_ENABLED`); True if sent.
    Without one nothing is sent: the page shows the link to copy."""
    if not (settings.EMAIL_ENABLED and email):
        return False
    send_mail(subject, f"{text}\n\n{link}\n", None, [email])
    return True
