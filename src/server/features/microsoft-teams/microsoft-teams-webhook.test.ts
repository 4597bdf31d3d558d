import { describe, expect, it } from 'vitest';
import { checkTeamsWebhookUrl, teamsWebhookProblem } from './microsoft-teams.service.ts';

const WORKFLOW =
  'https://prod-12.westeurope.logic.azure.com:443/workflows/0a1b2c/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=abc';
const POWER_PLATFORM =
  'https://default0a1b.2c.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0a1b2c/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers&sv=1.0&sig=abc';

describe('Teams Workflows webhook URLs', () => {
  it('takes the Workflows trigger URLs, and refuses the retired Office 365 connectors', () => {
    expect(checkTeamsWebhookUrl(WORKFLOW, false)).toEqual({ destination: 'prod-12.westeurope.logic.azure.com/…' });
    expect(checkTeamsWebhookUrl(POWER_PLATFORM, false).destination).toBe('default0a1b.2c.environment.api.powerplatform.com/…');
    expect(() => checkTeamsWebhookUrl('https://acme.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi', false)).toThrow(/Office 365 connector URL/);
    expect(() => checkTeamsWebhookUrl(WORKFLOW.replace('&sig=abc', ''), false)).toThrow(/not a Teams Workflows webhook URL/);
    expect(() => checkTeamsWebhookUrl('https://logic.azure.com.evil.example/workflows/a/triggers/manual/paths/invoke?sig=x', false)).toThrow(/not a Teams/);
    expect(checkTeamsWebhookUrl('http://127.0.0.1:8080/hook', true).destination).toBe('127.0.0.1:8080/…');
  });

  it('says what a refusal means', () => {
    expect(teamsWebhookProblem(404, '')).toMatch(/not found.*deleted/);
    expect(teamsWebhookProblem(400, JSON.stringify({ error: { code: 'WorkflowTriggerIsNotEnabled' } }))).toBe(
      'The Teams workflow is turned off (WorkflowTriggerIsNotEnabled). Turn it on in Teams › Workflows.',
    );
    expect(teamsWebhookProblem(503, 'not json')).toBe('Teams answered HTTP 503. It will be tried again.');
  });
});
