"""Build the board geometry of every ruleset: games/rules/<r>/data/geometry/board.json.

Build-time only (the server and the tests read the committed JSON). Needs, in a
throwaway virtualenv, `pip install shapely==2.2.0 japanmap==0.6.0` and the npm
package `world-atlas@2.0.2` unpacked somewhere (`npm pack world-atlas@2.0.2 &&
tar xzf world-atlas-2.0.2.tgz`):

    python scripts/build_geometry.py --world-atlas /tmp/wa/package

Why, with the measurements and history: docs/modules.md, `scripts/build_geometry.py`.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import japanmap
import shapely
import yaml
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import polylabel, unary_union

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "rules"
MAP_W = 860  # map units; the renderer puts its side panel to the right
SIMPLIFY = 0.6  # map units (under a pixel at 1200 px wide)

# JIS prefecture codes (japanmap's order)
PREF = {
    "Hokkaido": 1, "Aomori": 2, "Iwate": 3, "Miyagi": 4, "Akita": 5, "Yamagata": 6, "Fukushima": 7,
    "Ibaraki": 8, "Tochigi": 9, "Gunma": 10, "Saitama": 11, "Chiba": 12, "Tokyo": 13, "Kanagawa": 14,
    "Niigata": 15, "Toyama": 16, "Ishikawa": 17, "Fukui": 18, "Yamanashi": 19, "Nagano": 20, "Gifu": 21,
    "Shizuoka": 22, "Aichi": 23, "Mie": 24, "Shiga": 25, "Kyoto": 26, "Osaka": 27, "Hyogo": 28, "Nara": 29,
    "Wakayama": 30, "Tottori": 31, "Shimane": 32, "Okayama": 33, "Hiroshima": 34, "Yamaguchi": 35,
    "Tokushima": 36, "Kagawa": 37, "Ehime": 38, "Kochi": 39, "Fukuoka": 40, "Saga": 41, "Nagasaki": 42,
    "Kumamoto": 43, "Oita": 44, "Miyazaki": 45, "Kagoshima": 46,
}  # fmt: skip

# Rising Sun: the game's regions as groups of prefectures (its Kyoto is central Honshu)
RISING_SUN = {
    "Hokkaido": ["Hokkaido"],
    "Oshu": ["Aomori", "Iwate", "Miyagi", "Akita", "Yamagata", "Fukushima"],
    "Edo": ["Ibaraki", "Tochigi", "Gunma", "Saitama", "Chiba", "Tokyo", "Kanagawa"],
    "Kyoto": ["Niigata", "Toyama", "Ishikawa", "Fukui", "Yamanashi", "Nagano", "Gifu", "Shizuoka", "Aichi", "Kyoto"],
    "Kansai": ["Mie", "Shiga", "Osaka", "Hyogo", "Nara", "Wakayama"],
    "Nagato": ["Tottori", "Shimane", "Okayama", "Hiroshima", "Yamaguchi"],
    "Shikoku": ["Tokushima", "Kagawa", "Ehime", "Kochi"],
    "Kyushu": ["Fukuoka", "Saga", "Nagasaki", "Kumamoto", "Oita", "Miyazaki", "Kagoshima"],
}  # fmt: skip

# Names placed by hand (lon, lat) where the pole of inaccessibility crowds a neighbour:
# a province's chips go in rows under its name, so they need room below it.
LABEL_AT = {
    "rising_sun": {"Kansai": (135.95, 34.95), "Shikoku": (133.55, 33.80)},
    "shogun": {
        "Bitchu": (133.55, 34.65),
        "Bizen": (134.1, 34.5),
        "Bingo": (133.0, 34.9),
        "Iwami": (132.0, 34.85),
        "Aki": (132.6, 34.38),
        "Sanuki": (133.9, 34.13),
        "Awa-Shikoku": (134.35, 33.8),
        "Mimasaka": (134.0, 35.12),
        "Hoki": (133.45, 35.45),
        "Hitachi": (140.45, 36.45),
        "Shimotsuke": (139.8, 36.75),
        "Totomi": (137.95, 34.8),
        "Suruga": (138.45, 35.2),
        "Awa-Boso": (139.95, 34.98),
        "Kazusa": (140.25, 35.45),
        "Kai": (138.6, 35.7),
        "Sagami": (139.3, 35.4),
        "Owari": (136.95, 35.25),
        "Mikawa": (137.4, 34.8),
        "Tosa": (133.55, 33.55),
        "Iyo": (132.85, 33.85),
        "Wakasa": (135.75, 35.55),
        "Omi": (136.1, 35.15),
        "Tamba": (135.3, 35.2),
        "Ise": (136.5, 34.75),
        "Yamato": (135.85, 34.35),
        "Shima": (136.8, 34.35),
        "Harima": (134.7, 34.85),
    },  # fmt: skip
    "imjin": {
        "JL_R": (126.80, 35.75),
        "JL_L": (127.40, 35.15),
        "GG_R": (126.75, 37.95),
        "GS_R": (128.35, 35.55),
    },
}

# Shogun: prefecture -> {province: representative points (lon, lat) of its part there}.
# One province per prefecture keeps the prefecture outline. Provinces the game does not
# have (Dewa, Kawachi, Izumi, Yamashiro, Tango, Inaba, Iga, Awaji...) go to the game's
# neighbouring province that the game's adjacency implies. Yamaguchi and Kyushu are not
# on the Shogun board: drawn as context.
SHOGUN = {
    "Aomori": {"Mutsu": []}, "Iwate": {"Mutsu": []}, "Miyagi": {"Mutsu": []}, "Akita": {"Mutsu": []},
    "Yamagata": {"Mutsu": []}, "Fukushima": {"Mutsu": []},
    "Ibaraki": {"Hitachi": [(140.40, 36.45)], "Shimosa": [(139.90, 36.02)]},
    "Tochigi": {"Shimotsuke": []}, "Gunma": {"Kozuke": []}, "Saitama": {"Musashi": []},
    "Tokyo": {"Musashi": []},
    "Chiba": {"Shimosa": [(140.15, 35.80), (140.60, 35.75)], "Kazusa": [(140.20, 35.38)], "Awa-Boso": [(139.95, 35.02)]},
    "Kanagawa": {"Musashi": [(139.62, 35.55)], "Sagami": [(139.30, 35.38)]},
    "Niigata": {"Echigo": []}, "Toyama": {"Etchu": []},
    "Ishikawa": {"Noto": [(136.90, 37.15)], "Kaga": [(136.55, 36.40)]},
    "Fukui": {"Echizen": [(136.30, 36.00)], "Wakasa": [(135.80, 35.50)]},
    "Yamanashi": {"Kai": []}, "Nagano": {"Shinano": []},
    "Gifu": {"Hida": [(137.25, 36.15)], "Mino": [(136.75, 35.45)]},
    "Shizuoka": {"Izu": [(138.95, 34.85)], "Suruga": [(138.45, 35.15)], "Totomi": [(137.85, 34.80)]},
    "Aichi": {"Owari": [(136.90, 35.20)], "Mikawa": [(137.40, 34.88)]},
    "Mie": {"Ise": [(136.45, 34.75), (136.15, 34.75)], "Shima": [(136.82, 34.35)], "Kii": [(136.10, 33.90)]},
    "Shiga": {"Omi": []},
    "Kyoto": {"Tamba": [(135.10, 35.60), (135.35, 35.15)], "Omi": [(135.80, 35.05)], "Yamato": [(135.80, 34.82)]},
    "Osaka": {"Settsu": []},
    "Hyogo": {"Settsu": [(135.30, 34.80)], "Harima": [(134.70, 34.90)], "Tajima": [(134.75, 35.45)], "Tamba": [(135.15, 35.12)]},
    "Nara": {"Yamato": []}, "Wakayama": {"Kii": []},
    "Tottori": {"Hoki": [(133.55, 35.40)], "Tajima": [(134.30, 35.45)]},
    "Shimane": {"Izumo": [(132.90, 35.35)], "Iwami": [(132.10, 34.85)]},
    "Okayama": {"Bizen": [(134.05, 34.70)], "Bitchu": [(133.60, 34.75)], "Mimasaka": [(133.90, 35.10)]},
    "Hiroshima": {"Bingo": [(133.15, 34.70)], "Aki": [(132.50, 34.45)]},
    "Tokushima": {"Awa-Shikoku": []}, "Kagawa": {"Sanuki": []}, "Ehime": {"Iyo": []}, "Kochi": {"Tosa": []},
}  # fmt: skip

# Imjin: representative points (lon, lat) of each area (左 = east, 右 = west)
IMJIN_LAND = {
    "GG_L": [(127.45, 37.35)], "GG_R": [(126.75, 37.70)],
    "CC_L": [(127.95, 36.85)], "CC_R": [(126.90, 36.45)],
    "JL_L": [(127.45, 35.10)], "JL_R": [(126.65, 35.30)],
    "GS_L": [(129.05, 35.95)], "GS_R": [(128.15, 35.30)],
    "GW_E": [(128.85, 37.65)], "GW_W": [(127.95, 37.85)],
    "HH_L": [(126.55, 38.45)], "HH_R": [(125.55, 38.15)],
    "PA_E": [(126.60, 39.75)], "PA_W": [(125.40, 39.65)],
    "HG_S": [(127.55, 39.95)], "HG_N": [(129.40, 41.40), (128.60, 41.60)],
}  # fmt: skip
IMJIN_SEA = {
    "TS_E": [(130.05, 33.95)], "TS_W": [(128.95, 34.55)],
    "WKB": [(124.20, 39.45)], "DDB": [(124.60, 38.75)],
    "GGB": [(125.95, 37.25)], "YS": [(124.60, 36.20)],
    "DMS": [(125.60, 34.10)], "SOJ": [(130.40, 37.60)],
}  # fmt: skip


class Projection:
    def __init__(self, lon0: float, lat0: float, lon1: float, lat1: float):
        self.lon0, self.lat1 = lon0, lat1
        self.kx = math.cos(math.radians((lat0 + lat1) / 2))
        self.k = MAP_W / ((lon1 - lon0) * self.kx)
        self.h = round((lat1 - lat0) * self.k)

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        return ((lon - self.lon0) * self.kx * self.k, (self.lat1 - lat) * self.k)

    def geom(self, g):
        return shapely.transform(g, lambda a: [self.xy(x, y) for x, y in a])


# ---- sources -------------------------------------------------------------------------


def prefectures() -> dict[str, Polygon]:
    qp, qo = japanmap.get_data()
    rings = japanmap.pref_points((qp, qo))
    by_code = {code: Polygon(rings[code - 1]).buffer(0) for code in range(1, 47)}  # rings[0] is Hokkaido
    return {name: by_code[code] for name, code in PREF.items()}


def topo_countries(atlas: Path) -> dict[str, MultiPolygon]:
    topo = json.loads((atlas / "countries-50m.json").read_text())
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(ids):
        out = []
        for i in ids:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        return out

    def polygon(rings):
        return Polygon(ring(rings[0]), [ring(r) for r in rings[1:]])

    near = box(110, 20, 160, 55)  # East Asia only (Russia crosses the antimeridian)
    out = {}
    for g in topo["objects"]["countries"]["geometries"]:
        name = g.get("properties", {}).get("name")
        if g["type"] == "Polygon":
            out[name] = MultiPolygon([polygon(g["arcs"])])
        elif g["type"] == "MultiPolygon":
            out[name] = MultiPolygon([polygon(p) for p in g["arcs"]])
    return {k: unary_union([p.buffer(0) for p in v.geoms]).intersection(near) for k, v in out.items()}


# ---- geometry helpers ------------------------------------------------------------------


def voronoi_split(area, seeds: dict[str, list[tuple[float, float]]]) -> dict[str, object]:
    """Cut `area` into cells around each key's points; a key's cells are unioned."""
    points = [(k, p) for k, ps in seeds.items() for p in ps]
    env = box(*area.buffer(5).bounds)
    cells = shapely.voronoi_polygons(shapely.MultiPoint([p for _, p in points]), extend_to=env)
    out: dict[str, list] = {k: [] for k in seeds}
    for cell in cells.geoms:
        owner = next(k for k, p in points if cell.contains(Point(p)))
        out[owner].append(cell.intersection(area))
    return {k: unary_union(v) for k, v in out.items()}


def adopt_orphans(cells: dict[str, object], seeds: dict[str, list[tuple[float, float]]]) -> dict[str, object]:
    """A part of a cell cut off from its own point by land (a bay behind a cape)
    joins the neighbouring area it touches, so sea areas stay in one piece."""
    keep = {}
    orphans = []
    for k, g in cells.items():
        pts = [Point(p) for p in seeds[k]]
        mine = [p for p in polygons(g) if any(p.buffer(0.01).contains(q) for q in pts)]
        keep[k] = unary_union(mine)
        orphans += [p for p in polygons(g) if p not in mine]
    for o in orphans:
        near = [(keep[k].intersection(o.buffer(0.5)).area, k) for k in keep]
        area, k = max(near)
        keep[k] = unary_union([keep[k], o]) if area > 0 else keep[k]
    return keep


def path_d(g) -> str:
    parts = []
    for p in polygons(g):
        for r in [p.exterior, *p.interiors]:
            xy = list(r.coords)[:-1]
            if len(xy) < 3:
                continue
            parts.append("M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in xy) + "Z")
    return "".join(parts)


def polygons(g) -> list[Polygon]:
    if isinstance(g, Polygon):
        return [] if g.is_empty else [g]
    return [p for part in getattr(g, "geoms", []) for p in polygons(part)]


def main_part(g) -> Polygon:
    return max(polygons(g), key=lambda p: p.area)


def anchor(g) -> list[float]:
    p = polylabel(main_part(g), tolerance=0.5)
    return [round(p.x, 1), round(p.y, 1)]


def clean(g, proj: Projection | None = None):
    g = proj.geom(g) if proj else g
    g = g.buffer(0).simplify(SIMPLIFY, preserve_topology=True)
    return shapely.set_precision(g, 0.1)


def province_entry(g, kind: str, **more) -> dict:
    return {"d": path_d(g), "kind": kind, "label_at": anchor(g), **more}


def place_labels(provinces: dict, ruleset: str, proj: Projection) -> None:
    for p, ll in LABEL_AT.get(ruleset, {}).items():
        provinces[p]["label_at"] = [round(v, 1) for v in proj.xy(*ll)]


def route(a: list[float], b: list[float], bend: float = 0.18) -> str:
    """A gentle quadratic curve from a to b (sea routes), bent to the right; the
    renderer draws routes under the land, so only their sea stretch shows."""
    (x0, y0), (x1, y1) = a, b
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    cx, cy = mx - (y1 - y0) * bend, my + (x1 - x0) * bend
    return f"M{x0:.1f},{y0:.1f}Q{cx:.1f},{cy:.1f} {x1:.1f},{y1:.1f}"


def context(countries, names, proj, frame, exclude=None) -> list[dict]:
    out = []
    for name in names:
        g = proj.geom(countries[name]).intersection(frame)
        if exclude is not None:
            g = g.difference(exclude.buffer(0.5))
        g = clean(g)
        if not g.is_empty:
            out.append({"name": name, "d": path_d(g)})
    return out


def write(ruleset: str, body: dict) -> None:
    out = RULES / ruleset / "data" / "geometry" / "board.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(body, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    print(out, len(out.read_text()) // 1024, "KiB")


SOURCES_JP = [
    "japanmap 0.6.0 (PyPI, Apache-2.0): prefecture outlines",
    "world-atlas 2.0.2 (npm, ISC; Natural Earth 1:50m, public domain): coastlines of the context land",
]


# ---- boards ------------------------------------------------------------------------------


def rising_sun(prefs, countries) -> None:
    data = json.loads((RULES / "rising_sun" / "data" / "board.json").read_text())
    proj = Projection(128.6, 30.8, 146.0, 45.7)
    frame = box(0, 0, MAP_W, proj.h)
    shapes = {p: clean(unary_union([prefs[n] for n in names]), proj) for p, names in RISING_SUN.items()}
    assert set(shapes) == set(data["provinces"]), "board.json and the grouping disagree"
    land = unary_union(list(shapes.values()))
    provinces = {p: province_entry(g, "land") for p, g in shapes.items()}
    place_labels(provinces, "rising_sun", proj)
    bends = {("Hokkaido", "Kansai"): 0.32, ("Hokkaido", "Kyushu"): 0.3, ("Hokkaido", "Oshu"): 0.3}
    routes = [
        {
            "a": a,
            "b": b,
            "kind": "sea",
            "d": route(provinces[a]["label_at"], provinces[b]["label_at"], bends.get((a, b), 0.18)),
        }
        for a, b in data["shipping_routes"]
    ]
    write(
        "rising_sun",
        {
            "viewBox": [0, 0, MAP_W, proj.h],
            "method": "each province is the union of whole modern prefectures",
            "sources": SOURCES_JP,
            "provinces": provinces,
            "routes": routes,
            "context": context(
                countries, ["Japan", "South Korea", "North Korea", "Russia"], proj, frame, land
            ),
        },
    )


def shogun(prefs, countries) -> None:
    data = yaml.safe_load((RULES / "shogun" / "data" / "map.yaml").read_text())
    proj = Projection(131.85, 33.25, 141.3, 39.3)  # Mutsu runs on north, off the board
    frame = box(0, 0, MAP_W, proj.h)
    parts: dict[str, list] = {}
    for pref, provs in SHOGUN.items():
        area = proj.geom(prefs[pref])
        if len(provs) == 1:
            parts.setdefault(next(iter(provs)), []).append(area)
            continue
        seeds = {p: [proj.xy(*ll) for ll in pts] for p, pts in provs.items()}
        for p, g in voronoi_split(area, seeds).items():
            parts.setdefault(p, []).append(g)
    shapes = {p: clean(unary_union(gs).intersection(frame)) for p, gs in parts.items()}
    assert set(shapes) == set(data["provinces"]), set(shapes) ^ set(data["provinces"])
    land = unary_union(list(shapes.values()))
    provinces = {p: province_entry(g, "land") for p, g in sorted(shapes.items())}
    place_labels(provinces, "shogun", proj)
    routes = [
        {
            "a": e[0],
            "b": e[1],
            "kind": "sea",
            "d": route(provinces[e[0]]["label_at"], provinces[e[1]]["label_at"]),
        }
        for e in data["edges"]
        if len(e) > 2 and e[2] == "sea"
    ]
    write(
        "shogun",
        {
            "viewBox": [0, 0, MAP_W, proj.h],
            "method": "whole prefectures where an old province is one; elsewhere Voronoi cells of "
            "representative points of the old provinces inside each prefecture (approximate borders)",
            "sources": SOURCES_JP,
            "provinces": provinces,
            "routes": routes,
            "context": context(countries, ["Japan", "South Korea"], proj, frame, land),
        },
    )


def imjin(countries) -> None:
    data = yaml.safe_load((RULES / "imjin" / "data" / "map.yaml").read_text())
    proj = Projection(123.8, 33.0, 131.0, 43.05)
    frame = box(0, 0, MAP_W, proj.h)
    korea = proj.geom(unary_union([countries["North Korea"], countries["South Korea"]]))
    land_all = proj.geom(
        unary_union([countries[n] for n in ("North Korea", "South Korea", "China", "Japan", "Russia")])
    )
    land_seeds = {k: [proj.xy(*ll) for ll in v] for k, v in IMJIN_LAND.items()}
    sea_seeds = {k: [proj.xy(*ll) for ll in v] for k, v in IMJIN_SEA.items()}
    lands = voronoi_split(korea, land_seeds)
    seas = adopt_orphans(voronoi_split(frame.difference(land_all.buffer(0.5)), sea_seeds), sea_seeds)
    ids = {a["id"]: a for a in data["map"]["areas"]}
    assert set(ids) == set(lands) | set(seas), set(ids) ^ (set(lands) | set(seas))
    provinces = {}
    for k, g in {**lands, **seas}.items():
        g = clean(g)
        kind = ids[k]["type"]
        entry = province_entry(g, kind)
        if kind == "sea":  # the label where the area's point was put, not in a far corner
            pt = Point(*(sea_seeds[k][0]))
            entry["label_at"] = [round(pt.x, 1), round(pt.y, 1)] if g.contains(pt) else entry["label_at"]
        provinces[k] = entry
    place_labels(provinces, "imjin", proj)
    write(
        "imjin",
        {
            "viewBox": [0, 0, MAP_W, proj.h],
            "method": "Voronoi cells of representative points of the areas, clipped to the Natural Earth "
            "coastline (land) or to the sea; the Joseon borders are approximated, not traced",
            "sources": ["world-atlas 2.0.2 (npm, ISC; Natural Earth 1:50m, public domain): coastlines"],
            "provinces": provinces,
            "routes": [],
            "context": context(countries, ["China", "Japan", "Russia"], proj, frame),
        },
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world-atlas", type=Path, required=True, help="unpacked npm package world-atlas@2.0.2")
    args = ap.parse_args()
    countries = topo_countries(args.world_atlas)
    prefs = prefectures()
    rising_sun(prefs, countries)
    shogun(prefs, countries)
    imjin(countries)


if __name__ == "__main__":
    main()
