"""Publishing's manage pages (the endpoint itself is `publishing.interchange`)."""

from django.urls import path

from tournaments.paths import T
from tournaments.publishing import views

manage = [
    path("club/<int:club>/publishing/", views.ClubKeysView.as_view(), name="publishing_keys"),
    path(T + "publishing/", views.MatchDayKeysView.as_view(), name="publishing_venue_keys"),
    path(
        "publishing/<int:key>/revoke/",
        views.KeyRevokeView.as_view(),
        name="publishing_key_revoke",
    ),
    path(T + "publishing/hand-over/", views.HandOverView.as_view(), name="publishing_hand_over"),
]
