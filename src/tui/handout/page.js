// Stepping through the HTML handout: → or j to the next step, ← or k to
// the one before; the current step is marked and scrolled to. A step's
// link (#step-4) opens on it. The body's data-ready says the script ran.
(function () {
  "use strict";
  var steps = document.querySelectorAll(".step");
  var at = 0;

  function show(n, scroll) {
    if (steps.length === 0) return;
    n = Math.max(0, Math.min(steps.length - 1, n));
    steps[at].classList.remove("current");
    steps[at].removeAttribute("aria-current");
    at = n;
    steps[at].classList.add("current");
    steps[at].setAttribute("aria-current", "step");
    if (scroll) steps[at].scrollIntoView({ block: "start" });
  }

  function linked() {
    for (var i = 0; i < steps.length; i++) {
      if ("#" + steps[i].id === window.location.hash) return i;
    }
    return -1;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var by = 0;
    switch (event.key) {
      case "ArrowRight": case "j": by = 1; break;
      case "ArrowLeft": case "k": by = -1; break;
      default: return;
    }
    event.preventDefault();
    show(at + by, true);
  });
  window.addEventListener("hashchange", function () {
    var n = linked();
    if (n >= 0) show(n, false);
  });
  for (var i = 0; i < steps.length; i++) {
    steps[i].addEventListener("click", show.bind(null, i, false));
  }

  var opened = linked();
  show(Math.max(opened, 0), opened >= 0);
  document.body.setAttribute("data-ready", String(steps.length));
})();
