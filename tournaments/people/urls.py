"""The secretaries' pages of one person across clubs: a club's members from other clubs,
likely duplicates, merging two records and undoing a merge."""

from django.urls import path

from tournaments.people import views

manage = [
    path("club/<int:club>/members/add/", views.MemberAddView.as_view(), name="member_add"),
    path(
        "club/<int:club>/members/<int:pk>/end/",
        views.MembershipEndView.as_view(),
        name="member_end",
    ),
    path("club/<int:club>/duplicates/", views.DuplicatesView.as_view(), name="duplicates"),
    path(
        "club/<int:club>/merge/<int:kept>/<int:absorbed>/",
        views.MergeView.as_view(),
        name="player_merge",
    ),
    path(
        "club/<int:club>/merges/<int:pk>/undo/",
        views.MergeUndoView.as_view(),
        name="merge_undo",
    ),
]
