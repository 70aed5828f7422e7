// relay console: the project switcher submits on change, and new deposits appear at the top
// of the timeline as they land (the server's event stream). Text is set with textContent only.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.submit());
  }
  const main = document.getElementById("timeline");
  const live = document.getElementById("live");
  if (!main || !live || !window.EventSource) return;
  const project = main.dataset.project;
  const source = new EventSource(`/v1/projects/${encodeURIComponent(project)}/events`);
  source.addEventListener("package", (message) => {
    const event = JSON.parse(message.data);
    const p = event.record.package;
    if (document.querySelector(`li.package[data-id="${CSS.escape(p.package_id)}"]`)) return;
    const li = document.createElement("li");
    li.className = "package";
    li.dataset.id = p.package_id;
    const add = (tag, cls, text) => {
      const el = document.createElement(tag);
      el.className = cls;
      el.textContent = text;
      li.appendChild(el);
      return el;
    };
    add("span", "when", (p.created_at || "").slice(11, 16));
    add("span", "type", p.package_type || "");
    add("span", `status ${p.status || ""}`, p.status || "");
    const title = add("a", "title", p.title || "");
    title.href = `/packages/${encodeURIComponent(p.package_id)}`;
    add("span", "author", (p.created_by && p.created_by.id) || "");
    live.prepend(li);
  });
});
