// Offline geography for the Locations map: coordinates from the rows, an equirectangular
// projection fitted to them, graticule steps, and country outlines from Natural Earth (world-atlas).
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, Geometry, Position } from 'geojson';
import world from 'world-atlas/countries-110m.json';
import { cellText, type Row } from './values';

export interface MapPoint {
  index: number;
  lat: number;
  lon: number;
  name: string;
  id: string;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

// Normalized (WGS84) coordinates are preferred where the service still sends them; Records name
// their coordinates after the monitoring location.
const LAT_KEYS = ['LatitudeNormalized', 'Latitude', 'MonitoringLocationLatitude'];
const LON_KEYS = ['LongitudeNormalized', 'Longitude', 'MonitoringLocationLongitude'];

function pick(row: Row, keys: string[]): number | undefined {
  for (const k of keys) {
    const v = num(row[k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function hasCoordinates(columns: string[]): boolean {
  return LAT_KEYS.some((k) => columns.includes(k)) && LON_KEYS.some((k) => columns.includes(k));
}

export function pointsOf(rows: Row[]): MapPoint[] {
  const out: MapPoint[] = [];
  rows.forEach((row, index) => {
    const lat = pick(row, LAT_KEYS);
    const lon = pick(row, LON_KEYS);
    if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) return;
    const name = cellText(row.Name ?? row.MonitoringLocationName ?? row.NameId).trim();
    const id = cellText(row.ID ?? row.MonitoringLocationID ?? row.NameId ?? row.Id).trim();
    out.push({ index, lat, lon, name, id });
  });
  return out;
}

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Canada's extent, shown when there is nothing to fit. */
export const CANADA_BOUNDS: Bounds = { west: -141, south: 41.7, east: -52.6, north: 83.1 };

export function boundsOf(points: MapPoint[]): Bounds {
  if (!points.length) return CANADA_BOUNDS;
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity;
  for (const p of points) {
    if (p.lon < west) west = p.lon;
    if (p.lon > east) east = p.lon;
    if (p.lat < south) south = p.lat;
    if (p.lat > north) north = p.lat;
  }
  // Pad so edge points are not on the frame, and never zoom in so far that no coastline shows.
  const padLon = Math.max((east - west) * 0.12, 1);
  const padLat = Math.max((north - south) * 0.12, 0.6);
  west -= padLon;
  east += padLon;
  south -= padLat;
  north += padLat;
  const minLon = 10,
    minLat = 6;
  if (east - west < minLon) {
    const c = (east + west) / 2;
    west = c - minLon / 2;
    east = c + minLon / 2;
  }
  if (north - south < minLat) {
    const c = (north + south) / 2;
    south = c - minLat / 2;
    north = c + minLat / 2;
  }
  return {
    west: Math.max(-180, west),
    east: Math.min(180, east),
    south: Math.max(-85, south),
    north: Math.min(85, north),
  };
}

export interface Projection {
  width: number;
  height: number;
  /** Visible extent after fitting the bounds into the frame (wider or taller than asked). */
  view: Bounds;
  x(lon: number): number;
  y(lat: number): number;
}

/** Equirectangular, scaled by cos(middle latitude) so shapes near 60°N are not twice as wide. */
export function fitProjection(b: Bounds, width: number, height: number): Projection {
  const midLat = (b.north + b.south) / 2;
  const k = Math.cos((midLat * Math.PI) / 180);
  const spanX = (b.east - b.west) * k;
  const spanY = b.north - b.south;
  const scale = Math.min(width / spanX, height / spanY);
  const cx = (b.east + b.west) / 2;
  const cy = midLat;
  const halfLon = width / scale / k / 2;
  const halfLat = height / scale / 2;
  return {
    width,
    height,
    view: { west: cx - halfLon, east: cx + halfLon, south: cy - halfLat, north: cy + halfLat },
    x: (lon) => width / 2 + (lon - cx) * k * scale,
    y: (lat) => height / 2 - (lat - cy) * scale,
  };
}

/** A graticule step giving roughly 4 to 8 lines across `span` degrees. */
export function graticuleStep(span: number): number {
  for (const s of [0.5, 1, 2, 5, 10, 15, 20, 30]) if (span / s <= 8) return s;
  return 45;
}

export function formatLat(v: number): string {
  const r = Math.round(v * 10) / 10;
  return r === 0 ? '0°' : `${Math.abs(r)}°${r > 0 ? 'N' : 'S'}`;
}

export function formatLon(v: number): string {
  const r = Math.round(v * 10) / 10;
  return r === 0 || Math.abs(r) === 180 ? `${Math.abs(r)}°` : `${Math.abs(r)}°${r > 0 ? 'E' : 'W'}`;
}

export interface Country {
  id: string;
  name: string;
  rings: Position[][];
}

let countriesCache: Country[] | undefined;

export function countries(): Country[] {
  if (countriesCache) return countriesCache;
  const topo = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const fc = feature(topo, topo.objects.countries);
  countriesCache = fc.features.map((f: Feature<Geometry, { name: string }>) => {
    const g = f.geometry;
    const rings: Position[][] =
      g?.type === 'Polygon' ? g.coordinates : g?.type === 'MultiPolygon' ? g.coordinates.flat() : [];
    return { id: String(f.id ?? ''), name: f.properties?.name ?? '', rings };
  });
  return countriesCache;
}

export const CANADA_ID = '124';

/**
 * SVG path data of the rings that touch the view. Longitudes are unwrapped around the view centre
 * so rings crossing the antimeridian (Alaska's Aleutians, Russia) do not streak across the map.
 */
export function ringsPath(rings: Position[][], p: Projection): string {
  const centre = (p.view.west + p.view.east) / 2;
  const parts: string[] = [];
  for (const ring of rings) {
    if (ring.length < 3) continue;
    let prev = ring[0][0];
    let shift = Math.round((centre - prev) / 360) * 360;
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity;
    const pts: string[] = [];
    for (const [lon0, lat] of ring) {
      if (lon0 - prev > 180) shift -= 360;
      else if (prev - lon0 > 180) shift += 360;
      prev = lon0;
      const x = p.x(lon0 + shift);
      const y = p.y(lat);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      pts.push(`${x.toFixed(1)},${y.toFixed(1)}`);
    }
    if (maxX < 0 || minX > p.width || maxY < 0 || minY > p.height) continue;
    parts.push(`M${pts.join('L')}Z`);
  }
  return parts.join('');
}
