import { Label } from '#web/components/ui/label.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { Switch } from '#web/components/ui/switch.tsx';

/**
 * One on/off setting: the label names the switch (htmlFor), the description is read after it, and
 * the note, when there is one, after that (what the setting does on this installation).
 */
export function SettingToggle({
  id,
  label,
  description,
  note,
  checked,
  onCheckedChange,
}: {
  id: string;
  label: string;
  description: string;
  note?: string | undefined;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const descriptionId = `${id}-description`;
  const noteId = `${id}-note`;
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
        {note && (
          <p id={noteId} className="text-sm text-foreground">
            {note}
          </p>
        )}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} aria-describedby={note ? `${descriptionId} ${noteId}` : descriptionId} />
    </div>
  );
}

export type ToggleSpec<F extends string> = { field: F; label: string; description: string; note?: string };

/**
 * A titled group of on/off settings bound to a settings tab's values: each switch's id is
 * `${idPrefix}-${field}`; `separated` rules a line between the switches.
 */
export function SettingToggleSection<F extends string>({
  headingId,
  title,
  idPrefix,
  toggles,
  values,
  onChange,
  separated = false,
}: {
  headingId: string;
  title: string;
  idPrefix: string;
  toggles: ToggleSpec<F>[];
  values: Record<F, boolean>;
  onChange: (field: F, checked: boolean) => void;
  separated?: boolean;
}) {
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="font-medium">
        {title}
      </h3>
      {toggles.map((toggle, index) => {
        const row = (
          <SettingToggle
            key={toggle.field}
            id={`${idPrefix}-${toggle.field}`}
            label={toggle.label}
            description={toggle.description}
            note={toggle.note}
            checked={values[toggle.field]}
            onCheckedChange={(checked) => onChange(toggle.field, checked)}
          />
        );
        return separated ? (
          <div key={toggle.field}>
            {index > 0 && <Separator />}
            {row}
          </div>
        ) : (
          row
        );
      })}
    </section>
  );
}
