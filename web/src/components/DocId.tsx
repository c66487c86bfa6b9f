// A race or invariant id as a link to its explanation in the model's documentation, and prose
// with every such id in it linked.
import { docHref, splitIds } from '../app/docLinks';

export function DocId({ id }: { id: string }) {
  const href = docHref(id, import.meta.env.BASE_URL);
  if (!href) return <>{id}</>;
  return (
    <a
      className="doc-id"
      href={href}
      data-doc-id={id}
      title={`What ${id} is, in the model's documentation`}
    >
      {id}
    </a>
  );
}

export function WithDocIds({ text }: { text: string }) {
  return <>{splitIds(text).map((p, i) => ('id' in p ? <DocId key={i} id={p.id} /> : p.text))}</>;
}
