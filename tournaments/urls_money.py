"""The money desk of a tournament (included in the `manage` namespace by urls_admin.py)."""

from django.urls import path

from tournaments.views import money

T = "t/<slug:tournament>/money/"

urlpatterns = [
    path(T, money.MoneyView.as_view(), name="money"),
    path(T + "fees/", money.MoneySettingsView.as_view(), name="money_settings"),
    path(T + "prizes/", money.PrizePlanView.as_view(), name="money_prizes"),
    path(T + "pay/<int:registration>/", money.PaymentRecordView.as_view(), name="money_pay"),
    path(T + "settle/<int:registration>/", money.PaymentSettleView.as_view(), name="money_settle"),
    path(
        T + "payments/<int:pk>/delete/",
        money.PaymentDeleteView.as_view(),
        name="money_payment_delete",
    ),
    path(T + "prizes.pdf", money.PrizeListPdfView.as_view(), name="money_prizes_pdf"),
    path(T + "money.xlsx", money.MoneyWorkbookView.as_view(), name="money_workbook"),
]
