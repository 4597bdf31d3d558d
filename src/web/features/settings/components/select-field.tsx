import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';

/** Narrows a select's string to one of its option values. */
function isOneOf<V extends string>(options: readonly { value: V }[], value: string): value is V {
  return options.some((option) => option.value === value);
}

/** A labelled select over fixed options; only one of those options ever reaches onChange. */
export function SelectField<V extends string>({
  id,
  label,
  value,
  options,
  onChange,
  disabled = false,
  description,
}: {
  id: string;
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  description?: string;
}) {
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value}
        disabled={disabled}
        onValueChange={(next) => {
          if (isOneOf(options, next)) onChange(next);
        }}
      >
        <SelectTrigger id={id} className="w-full" aria-describedby={descriptionId}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
    </div>
  );
}
