"""factory_boy factories for the tournaments app (no JSON fixtures: they break with models)."""

import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments import models


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("skat-password-1")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Skatclub {n}")
    city = "Altenburg"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = factory.SubFactory(ClubFactory)

    @factory.post_generation
    def membership(player, create, extracted, **kwargs):
        # As `registry.services.player_create`: a member of the home club.
        if create and player.club is not None:
            models.Membership.objects.get_or_create(player=player, club=player.club)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Preisskat {n}")
    slug = factory.Sequence(lambda n: f"preisskat-{n}")
    date = datetime.date(2026, 11, 21)
    published = True


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


class RatingFactory(factory.django.DjangoModelFactory):
    """A player's current rating, written directly (the rating services write it in use):
    at the start (`ratings.method.START`) and shown (10 series) unless told."""

    class Meta:
        model = models.Rating

    player = factory.SubFactory(PlayerFactory)
    mu = 25.0
    sigma = 25.0 / 3
    series = 10
