import type { ComponentType } from 'react';

/**
 * The share dialog the meeting screens open. It belongs to the sharing feature; app/routes hands it
 * in, because features never import each other.
 */
export type ShareDialogProps = { meetingId: string; title: string; open: boolean; onOpenChange: (open: boolean) => void };

export type ShareDialogComponent = ComponentType<ShareDialogProps>;
