"""The money desk: fees, the pot, the prize plan and its winners, payments, the cash
summary.

selectors (reads) · services (writes) · forms · views · urls (its downloads are
`exporters`')
"""
