// Talk mode's blank screen (the `b` key): covers everything until a key or a click.
export function TalkBlank({ onUnblank }: { onUnblank: () => void }) {
  return (
    <div
      className="talk-blank"
      data-testid="talk-blank"
      role="presentation"
      aria-label="Screen blanked; press any key to show it again"
      onClick={onUnblank}
    />
  );
}
