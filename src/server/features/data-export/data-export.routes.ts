import { dataExportEndpoints } from '#shared/contracts/data-export.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { DataExportService } from './data-export.service.ts';

/** Settings › Privacy "Request Data Export": start one, see the latest, download it. */
export function registerDataExportRoutes(route: Router, deps: { exports: DataExportService }): void {
  route(dataExportEndpoints.request, async (request) => deps.exports.request(caller(request).user.id));
  route(dataExportEndpoints.latest, async (request) => ({ export: await deps.exports.latest(caller(request).user.id) }));
  route(dataExportEndpoints.download, async (request, reply) => {
    const file = await deps.exports.download(caller(request).user.id, request.params.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', file.bytes)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });
}
