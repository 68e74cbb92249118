"""Small SVG charts drawn by the site itself (no external service, no JavaScript).

`points_chart` draws one bar per series (list points, negative below the zero line) with
the running average as a line. It lays out figures it is given; it computes no score.
"""

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


def points_chart(values: list[tuple[str, int]], *, width: int = 640, height: int = 220) -> str:
    """An accessible inline SVG of (label, points) pairs in time order."""
    if not values:
        return ""
    left, right, top, bottom = 48, 12, 12, 28
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
    title = escape(_("Points per series"))
    average_title = escape(_("running average"))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
    ]
    tick = low
    while tick <= high:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{"#5f6b73" if tick == 0 else "#d9dee2"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" text-anchor="end" '
            f'fill="#5f6b73">{tick}</text>'
        )
        tick += step
    running, average_points = 0, []
    label_every = max(1, len(values) // 12)
    for index, (label, value) in enumerate(values):
        x = left + slot * index + (slot - bar_w) / 2
        top_y, bottom_y = sorted((y(value), y(0)))
        colour = "#1f6f43" if value >= 0 else "#b3261e"
        parts.append(
            f'<rect x="{x:.1f}" y="{top_y:.1f}" width="{bar_w:.1f}" '
            f'height="{max(bottom_y - top_y, 1):.1f}" fill="{colour}">'
            f"<title>{escape(label)}: {value}</title></rect>"
        )
        if index % label_every == 0:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{height - 10}" font-size="11" '
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
