"""The money desk of a tournament (its downloads are in `exporters.urls`)."""

from django.urls import path

from tournaments.money import views
from tournaments.paths import T

M = T + "money/"

manage = [
    path(M, views.MoneyView.as_view(), name="money"),
    path(M + "fees/", views.MoneySettingsView.as_view(), name="money_settings"),
    path(M + "prizes/", views.PrizePlanView.as_view(), name="money_prizes"),
    path(M + "pay/<int:registration>/", views.PaymentRecordView.as_view(), name="money_pay"),
    path(M + "settle/<int:registration>/", views.PaymentSettleView.as_view(), name="money_settle"),
    path(
        M + "payments/<int:pk>/delete/",
        views.PaymentDeleteView.as_view(),
        name="money_payment_delete",
    ),
]
