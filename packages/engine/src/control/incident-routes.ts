/**
 * The incidents' control endpoints (the mock's README, "Making the service misbehave"): add one
 * (`POST /__control/incidents`), list those in force (`GET`), end them all (`DELETE`) or one
 * (`DELETE /__control/incidents/{id}`). What a body may hold is incidents/parse.ts's to say.
 */
import { json, type Answer } from '../answer.ts';
import { parseIncident } from '../incidents/parse.ts';
import type { IncidentStore } from '../incidents/store.ts';
import { ProblemError } from '../problems.ts';
import { refused, shownJson } from './journal-routes.ts';

/** The answer of an incidents route (`METHOD /path`, ids as `{incident_id}`), or null for another route. */
export async function incidentRoute(
  route: string,
  path: string,
  incidents: IncidentStore,
  serviceNow: number,
  body: () => Promise<Record<string, unknown>>,
  known: readonly string[],
): Promise<Answer | null> {
  switch (route) {
    case 'POST /__control/incidents': {
      const asked = parseIncident(await body());
      if (!asked.ok) throw refused('invalid_body', asked.errors);
      return shownJson(201, await incidents.add(asked.value, serviceNow), known);
    }
    case 'GET /__control/incidents':
      await incidents.refresh?.(serviceNow);
      return shownJson(200, { incidents: incidents.list(serviceNow) }, known);
    case 'DELETE /__control/incidents':
      return json(200, { cleared: await incidents.clear() });
    case 'DELETE /__control/incidents/{incident_id}': {
      const ended = await incidents.end(path.split('/')[3]!, serviceNow);
      if (!ended) throw new ProblemError('not_found', 'No incident in force has that id.');
      return shownJson(200, ended, known);
    }
    default:
      return null;
  }
}
