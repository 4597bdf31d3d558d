import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/lib/toast.ts';
import { useShareToSlack } from '../share-to-slack-api.ts';

type ShareToSlackDialogProps = { meeting: { id: string; title: string }; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Posts the meeting's notes to the person's Slack channel now (Settings › Connected Accounts), with
 * the transcript when asked: a webhook takes it as text, as much as one message holds.
 */
export function ShareToSlackDialog({ meeting, open, onOpenChange }: ShareToSlackDialogProps) {
  const share = useShareToSlack(meeting.id);
  const [transcript, setTranscript] = useState(false);
  const id = useId();
  const send = () =>
    share.mutate(
      { transcript },
      {
        onSuccess: (result) => {
          toast.success('Shared to Slack', {
            description: result.transcriptTruncated
              ? 'The notes and the start of the transcript were posted; the message links to the rest.'
              : `“${meeting.title}” was posted to your Slack channel.`,
          });
          onOpenChange(false);
        },
        onError: (error) => toast.error('Not shared to Slack', { description: error.message }),
      },
    );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share to Slack</DialogTitle>
          <DialogDescription>
            Posts the summary, action items and decisions of “{meeting.title}” to your Slack channel, with a link to the meeting.
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-start gap-2">
          <Checkbox id={`${id}-transcript`} checked={transcript} onCheckedChange={(checked) => setTranscript(checked === true)} />
          <div className="grid gap-1">
            <Label htmlFor={`${id}-transcript`}>Include the transcript</Label>
            <p className="text-sm text-muted-foreground">
              Sent as text in the message (a webhook cannot upload files); a long transcript is cut where one Slack message ends.
            </p>
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          No channel yet? Connect Slack in{' '}
          <Link to={paths.settings.href()} className="underline">
            Settings
          </Link>{' '}
          › Connected Accounts.
        </p>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={send} disabled={share.isPending}>
            {share.isPending ? 'Sharing…' : 'Share'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
