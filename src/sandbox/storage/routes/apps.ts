// The apps installed for the user (a fixed sample list), filtered by extension or MIME type.
import { notFound } from '../errors';
import { renderApp } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';

function listApps(ctx: RequestContext, svc: StorageService): Reply {
  const split = (name: string) =>
    (ctx.query.get(name) ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  const exts = split('appFilterExtensions');
  const types = split('appFilterMimeTypes');
  const apps = svc.store.state.apps.filter((a) => {
    const e = [...a.primaryFileExtensions, ...a.secondaryFileExtensions];
    const m = [...a.primaryMimeTypes, ...a.secondaryMimeTypes];
    if (exts.length && !exts.some((x) => e.includes(x))) return false;
    if (types.length && !types.some((x) => m.includes(x))) return false;
    return true;
  });
  return {
    status: 200,
    json: {
      kind: 'drive#appList',
      etag: `"${apps.length}"`,
      selfLink: ctx.url.href,
      defaultAppIds: apps.filter((a) => a.useByDefault).map((a) => a.id),
      items: apps.map(renderApp),
    },
  };
}

function getApp(ctx: RequestContext, svc: StorageService): Reply {
  const a = svc.store.state.apps.find((x) => x.id === ctx.params.appId);
  if (!a) throw notFound('App', ctx.params.appId);
  return { status: 200, json: renderApp(a) };
}

export function registerAppRoutes(r: Router<StorageService>): void {
  r.add('GET', 'apps', listApps);
  r.add('GET', 'apps/{appId}', getApp);
}
