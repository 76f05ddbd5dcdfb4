"""Dynamic UI (the dashboard's ``UI/ui.yaml`` forms) -> the object model the dashboard sends.

``package_session(packages, package_fqn, cloud)`` (packages as ``mplc.frontend.load_packages``
gives them) or ``Session(definition, package_fqn, ...)`` is one run of the dashboard's wizard:
``views()`` shows every form as its page renders it, ``form(name)``
builds a form as its page shows it (``view()`` for rendering), ``model(answers)`` validates
every form's answers and evaluates the Application section. Reading and validating the
definition itself is the front end's (``mplc.frontend.ui.read_ui_definition``).
"""

from mplc.forms.cloud import Cloud, CloudError
from mplc.forms.expressions import KeyManagerError
from mplc.forms.fields import DashboardFailure
from mplc.forms.wizard import AnswersError, Session, ValidationFailed, class_ancestors, package_session

__all__ = ["AnswersError", "Cloud", "CloudError", "DashboardFailure", "KeyManagerError",
           "Session", "ValidationFailed", "class_ancestors", "package_session"]
