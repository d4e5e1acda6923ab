// oddsmith serve: follow a running simulation, cancel it, and show its answer when it is done.
(function () {
  "use strict";
  function follow(panel) {
    var id = panel.getAttribute("data-job");
    var label = panel.querySelector(".job-label"), pct = panel.querySelector(".job-pct");
    var bar = panel.querySelector("progress");
    function poll() {
      fetch("/jobs/" + encodeURIComponent(id), {cache: "no-store"}).then(function (r) { return r.json(); })
        .then(function (s) {
          panel.setAttribute("data-state", s.state || "gone");
          if (s.state === "running") {
            label.textContent = s.label; pct.textContent = Math.floor(100 * s.fraction); bar.value = s.fraction;
            setTimeout(poll, 400);
          } else if (s.state === "cancelled") {
            panel.innerHTML = '<p class="cancelled">Cancelled. Submit the form again to start afresh.</p>';
          } else {
            window.location.reload();  // done or failed: the page itself now shows the answer or the message
          }
        }).catch(function () { setTimeout(poll, 1500); });
    }
    setTimeout(poll, 300);
    var cancel = panel.querySelector("button.cancel");
    if (cancel) {
      cancel.addEventListener("click", function () {
        cancel.disabled = true; cancel.textContent = "Cancelling…";
        fetch("/jobs/" + encodeURIComponent(id) + "/cancel", {method: "POST"});
      });
    }
  }
  function start() {
    var panel = document.getElementById("job");
    if (panel) { follow(panel); }
    var sample = document.querySelectorAll("[data-template-target]");
    Array.prototype.forEach.call(sample, function (btn) {
      btn.addEventListener("click", function () {
        var target = document.getElementById(btn.getAttribute("data-template-target"));
        var source = document.getElementById(btn.getAttribute("data-template-source"));
        if (target && source) { target.value = source.textContent; target.focus(); }
      });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
