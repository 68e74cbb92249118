"""URLs of the people pages: `manage` (the site administrator's, a club's, a league's) and
`public` (the one-time links; sign-in itself is in skatclub/urls.py)."""

from django.urls import path

from tournaments.accounts import views

manage = [
    path("site/clubs/", views.SiteClubsView.as_view(), name="site_clubs"),
    path("site/leagues/", views.SiteLeaguesView.as_view(), name="site_leagues"),
    path("site/people/", views.SitePeopleView.as_view(), name="site_people"),
    path("site/log/", views.SiteLogView.as_view(), name="site_log"),
    path("club/<int:club>/people/", views.ClubPeopleView.as_view(), name="club_people"),
    path("league/<int:league>/", views.LeaguePeopleView.as_view(), name="league_people"),
    path("club/<int:pk>/invite/", views.InviteView.as_view(kind="club"), name="invite_club"),
    path("league/<int:pk>/invite/", views.InviteView.as_view(kind="league"), name="invite_league"),
    path("venue/<int:pk>/invite/", views.InviteView.as_view(kind="venue"), name="invite_venue"),
    path(
        "club/<int:pk>/secretaries/<int:user>/revoke/",
        views.RevokeView.as_view(kind="club"),
        name="revoke_club",
    ),
    path(
        "league/<int:pk>/directors/<int:user>/revoke/",
        views.RevokeView.as_view(kind="league"),
        name="revoke_league",
    ),
    path(
        "venue/<int:pk>/secretary/<int:user>/revoke/",
        views.RevokeView.as_view(kind="venue"),
        name="revoke_venue",
    ),
    path(
        "invitations/<int:pk>/withdraw/",
        views.WithdrawView.as_view(),
        name="invitation_withdraw",
    ),
    path(
        "people/<int:user>/password-link/",
        views.PasswordLinkView.as_view(),
        name="password_link",
    ),
    path("link/", views.LinkView.as_view(), name="account_link"),
]

public = [
    path("invite/<str:token>/", views.InvitationView.as_view(), name="invitation"),
    path("password/done/", views.PasswordSetDoneView.as_view(), name="password_reset_complete"),
    path("password/forgot/", views.ForgotView.as_view(), name="password_reset"),
    path("password/forgot/sent/", views.ForgotSentView.as_view(), name="password_reset_done"),
    # After the fixed addresses above, which it would match too.
    path(
        "password/<uidb64>/<token>/",
        views.PasswordSetView.as_view(),
        name="password_reset_confirm",
    ),
]
