"""``mplc serve``'s web service: Murano's schema and static-action API, mplc's routes, forms."""
