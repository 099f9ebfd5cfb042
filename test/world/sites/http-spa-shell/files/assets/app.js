document.getElementById("root").textContent = "Rendered by script";
