"""Dynamic UI (the dashboard's ``UI/ui.yaml`` forms) -> the object model the dashboard sends.

``Session(definition, package_fqn, ...)`` is one run of the dashboard's wizard: ``form(name)``
builds a form as its page shows it (``view()`` for rendering), ``model(answers)`` validates
every form's answers and evaluates the Application section. Reading and validating the
definition itself is the front end's (``mplc.frontend.ui.read_ui_definition``).
"""

from mplc.forms.cloud import Cloud, CloudError
from mplc.forms.expressions import KeyManagerError
from mplc.forms.fields import DashboardFailure
from mplc.forms.wizard import AnswersError, Session, ValidationFailed

__all__ = ["AnswersError", "Cloud", "CloudError", "DashboardFailure", "KeyManagerError",
           "Session", "ValidationFailed"]
