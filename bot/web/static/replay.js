// The replay's keys: the arrows follow the page's own links (rel prev / next / first / last).
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const rel = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
  const link = rel && document.querySelector(`a[rel="${rel}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
