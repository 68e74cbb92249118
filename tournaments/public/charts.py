"""Small SVG charts drawn by the site itself (no external service, no JavaScript).

`points_chart` draws one bar per series (list points, negative below the zero line) with
the running average as a line. It lays out figures it is given; it computes no score.

The SVG scales to the width of the page, its text with it: a 640-unit viewBox shown 330 px
wide on a phone would shrink 11-unit labels to 5 px. So the labels' size is set per screen
width in units of the viewBox (the chart's own <style>), and on a phone every other x label
gives way to the larger text.
"""

import math

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _


def _nice_step(span: float) -> int:
    raw = max(span / 4, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if magnitude * factor >= raw:
            return magnitude * factor
    return magnitude * 10


# Label sizes in CSS px as read on the screen, and the width a chart gets on a phone of
# 390 px (the page's padding and the card's taken off).
LABEL_PX = 11
PHONE_CHART_PX = 330
PHONE_MEDIA = "(max-width: 640px)"


def _label_every(label_chars: int, font: float, slot: float) -> int:
    """Show every n-th x label so that neighbours do not overlap (0.6 em a character)."""
    return max(1, math.ceil((label_chars * 0.6 * font + 8) / slot))


def points_chart(values: list[tuple[str, int]], *, width: int = 640, height: int = 220) -> str:
    """An accessible inline SVG of (label, points) pairs in time order."""
    if not values:
        return ""
    # On a phone the viewBox is shown PHONE_CHART_PX wide: scale the text up to match.
    font = LABEL_PX
    phone_font = round(LABEL_PX * max(width / PHONE_CHART_PX, 1))
    left, right, top, bottom = round(phone_font * 3.3), 12, 12, round(phone_font * 1.5) + 4
    plot_w, plot_h = width - left - right, height - top - bottom
    points = [v for _label, v in values]
    high, low = max(max(points), 0), min(min(points), 0)
    step = _nice_step(high - low or 1)
    high = -(-high // step) * step if high else 0
    low = -(-low // step) * step if low > 0 else (low // step) * step
    span = (high - low) or step

    def y(value: float) -> float:
        return top + (high - value) / span * plot_h

    slot = plot_w / len(values)
    bar_w = max(min(slot * 0.6, 40), 2)
    chars = max(len(label) for label, _value in values)
    every = _label_every(chars, font, slot)
    # On a phone: a multiple of the wide screen's step, so its labels are a subset.
    phone_every = math.ceil(_label_every(chars, phone_font, slot) / every) * every
    title = escape(_("Points per series"))
    average_title = escape(_("running average"))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
        f"<style>svg.chart text {{ font-size: {font}px; }} "
        f"@media {PHONE_MEDIA} {{ svg.chart text {{ font-size: {phone_font}px; }} "
        f"svg.chart text.wide-only {{ display: none; }} }}</style>",
    ]
    tick = low
    while tick <= high:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{"#5f6b73" if tick == 0 else "#d9dee2"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="{font}" text-anchor="end" '
            f'fill="#5f6b73">{tick}</text>'
        )
        tick += step
    running, average_points = 0, []
    for index, (label, value) in enumerate(values):
        x = left + slot * index + (slot - bar_w) / 2
        top_y, bottom_y = sorted((y(value), y(0)))
        colour = "#1f6f43" if value >= 0 else "#b3261e"
        parts.append(
            f'<rect x="{x:.1f}" y="{top_y:.1f}" width="{bar_w:.1f}" '
            f'height="{max(bottom_y - top_y, 1):.1f}" fill="{colour}">'
            f"<title>{escape(label)}: {value}</title></rect>"
        )
        if index % every == 0:
            wide_only = ' class="wide-only"' if index % phone_every else ""
            parts.append(
                f'<text{wide_only} x="{x + bar_w / 2:.1f}" y="{height - 6}" font-size="{font}" '
                f'text-anchor="middle" fill="#5f6b73">{escape(label)}</text>'
            )
        running += value
        average_points.append((x + bar_w / 2, y(running / (index + 1))))
    if len(average_points) > 1:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in average_points)
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="#8a5a00" stroke-width="2">'
            f"<title>{average_title}</title></polyline>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def rating_chart(values: list[tuple[str, int, int]], *, width: int = 360, height: int = 180):
    """An accessible inline SVG of a player's rating history: (label, rating, ±) in time
    order as `ratings.selectors.rating_history` gives them, the rating as a line and its
    uncertainty as a band around it. Small (a phone's width) and styled by the site's
    stylesheet (`svg.rating-chart`), so no rule of its own is needed."""
    if not values:
        return ""
    font = LABEL_PX + 1
    left, right, top, bottom = round(font * 3.6), 10, 10, round(font * 1.5) + 4
    plot_w, plot_h = width - left - right, height - top - bottom
    high = max(rating + spread for _label, rating, spread in values)
    low = min(rating - spread for _label, rating, spread in values)
    step = _nice_step(high - low or 1)
    high = -(-high // step) * step
    low = (low // step) * step
    span = (high - low) or step

    def y(value: float) -> float:
        return top + (high - value) / span * plot_h

    slot = plot_w / max(len(values) - 1, 1)

    def x(index: int) -> float:
        return left + (slot * index if len(values) > 1 else plot_w / 2)

    title = escape(_("Rating after each rated series"))
    parts = [
        f'<svg class="chart rating-chart" viewBox="0 0 {width} {height}" width="100%" '
        f'role="img" aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
    ]
    tick = low
    while tick <= high:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#d9dee2" stroke-width="1"/>'
            f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" font-size="{font}" text-anchor="end" '
            f'fill="#5f6b73">{tick}</text>'
        )
        tick += step
    upper = [
        f"{x(i):.1f},{y(rating + spread):.1f}" for i, (_l, rating, spread) in enumerate(values)
    ]
    lower = [
        f"{x(i):.1f},{y(rating - spread):.1f}" for i, (_l, rating, spread) in enumerate(values)
    ]
    parts.append(
        f'<polygon class="band" points="{" ".join(upper + lower[::-1])}" fill="#1f6f43" '
        f'fill-opacity="0.15" stroke="none"/>'
    )
    line = " ".join(f"{x(i):.1f},{y(rating):.1f}" for i, (_l, rating, _s) in enumerate(values))
    parts.append(f'<polyline points="{line}" fill="none" stroke="#1f6f43" stroke-width="2"/>')
    for index, (label, rating, spread) in enumerate(values):
        parts.append(
            f'<circle cx="{x(index):.1f}" cy="{y(rating):.1f}" r="3" fill="#1f6f43">'
            f"<title>{escape(label)}: {rating} ± {spread}</title></circle>"
        )
    # The first and the latest date under the line: the points say the rest.
    for index, anchor in ((0, "start"), (len(values) - 1, "end")):
        if index == 0 or len(values) > 1:
            parts.append(
                f'<text x="{x(index):.1f}" y="{height - 6}" font-size="{font}" '
                f'text-anchor="{anchor if len(values) > 1 else "middle"}" fill="#5f6b73">'
                f"{escape(values[index][0])}</text>"
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))
