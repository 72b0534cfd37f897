"""The site as an app on the phone: the web app manifest, the
service worker at the root scope and the page it shows when the server cannot be
reached. Imports no room of rummy: any page may link here, like the guide."""
