// Where generated sites may lie. A hub is a drainage basin, not a set of provinces: the Mackenzie hub's
// sites must sit inside the Mackenzie River basin, which covers only the north of Alberta and the west
// of the Northwest Territories (southern Alberta drains to Hudson Bay through the Saskatchewan River).

/** [longitude, latitude] vertices. */
export type Polygon = readonly (readonly [number, number])[];

/**
 * The Mackenzie River basin, coarsely traced along its divides (a few tens of km of error): the delta,
 * east around Great Bear and Great Slave lakes, the Athabasca–Churchill and Athabasca–North Saskatchewan
 * divides, the Rockies up the Peace and Liard headwaters, and the Peel basin back to the delta.
 */
export const MACKENZIE_BASIN: Polygon = [
  [-136.5, 69.0],
  [-133.0, 69.3],
  [-131.0, 68.0],
  [-127.0, 67.0],
  [-124.0, 67.2],
  [-119.5, 67.3],
  [-117.0, 66.5],
  [-116.5, 65.5],
  [-114.0, 64.5],
  [-111.0, 63.5],
  [-108.5, 62.8],
  [-106.5, 61.5],
  [-104.0, 59.5],
  [-103.5, 58.5],
  [-105.5, 57.0],
  [-108.0, 56.0],
  [-110.0, 55.2],
  [-112.5, 54.3],
  [-114.5, 54.0],
  [-116.5, 53.6],
  [-117.8, 52.6],
  [-118.2, 52.2],
  [-119.5, 53.3],
  [-121.0, 54.5],
  [-123.0, 55.0],
  [-125.5, 57.0],
  [-128.0, 58.5],
  [-130.5, 59.5],
  [-132.5, 60.5],
  [-133.5, 62.0],
  [-134.0, 64.0],
  [-138.5, 65.0],
  [-139.5, 66.0],
  [-137.5, 67.8],
];

/** Basins that constrain a hub's sites beyond the province's own extent. */
export const HUB_BASINS: Readonly<Record<string, Polygon>> = { mackenzie: MACKENZIE_BASIN };

/** Even–odd ray casting; points on an edge may fall either way, which sampling does not care about. */
export function insidePolygon(lon: number, lat: number, polygon: Polygon): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * A point of the box, inside `basin` when one is given: rejection sampling with `rand(attempt)` giving
 * pairs in [0,1), then a fallback that is inside both (the box's cell nearest to the basin's interior).
 */
export function placePoint(
  box: { lat: readonly [number, number]; lon: readonly [number, number] },
  basin: Polygon | undefined,
  rand: (attempt: number, axis: 0 | 1) => number,
): { latitude: number; longitude: number } {
  const at = (u: number, v: number) => ({
    latitude: box.lat[0] + u * (box.lat[1] - box.lat[0]),
    longitude: box.lon[0] + v * (box.lon[1] - box.lon[0]),
  });
  for (let attempt = 0; attempt < 64; attempt++) {
    const p = at(rand(attempt, 0), rand(attempt, 1));
    if (!basin || insidePolygon(p.longitude, p.latitude, basin)) return p;
  }
  for (let u = 0.05; u < 1; u += 0.1) {
    for (let v = 0.05; v < 1; v += 0.1) {
      const p = at(u, v);
      if (basin && insidePolygon(p.longitude, p.latitude, basin)) return p;
    }
  }
  return at(0.5, 0.5);
}
