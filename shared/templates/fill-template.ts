// A template's placeholders, filled when a page is made from it: {{title}} (the new page's title), {{date}} (the
// ISO date of the command's time, UTC) and {{author}} (the creator's name). Other braces are left as they are.
// Pure.
export interface TemplateValues {
  readonly title: string;
  readonly now: Date;
  readonly author: string;
}

const PLACEHOLDER = /\{\{\s*(title|date|author)\s*\}\}/g;

export function fillTemplate(text: string, values: TemplateValues): string {
  const date = values.now.toISOString().slice(0, 10);
  return text.replace(PLACEHOLDER, (_whole, name: string) =>
    name === "title" ? values.title : name === "date" ? date : values.author,
  );
}

/** A title taken from the template: {{date}} and {{author}} filled ({{title}} has nothing to stand for yet, and goes). */
export function fillTemplateTitle(title: string, values: Omit<TemplateValues, "title">): string {
  return fillTemplate(title, { ...values, title: "" })
    .replace(/\s+/g, " ")
    .trim();
}
