"""aaren_torch: the PyTorch twin of Aaren Studio's models and run folders (docs/DESIGN.md sections 4,
9 and 10). A run folder written by `aaren train` loads here, and one written here loads in the app."""
__version__ = "0.1.0"

from .decision import DecisionConfig, DecisionTransformer  # noqa: E402
from .models import (BackboneConfig, ClassifierConfig, ClassifierEnsemble, ClassifierModel, EventConfig,  # noqa: E402
                     EventModel, ForecastConfig, ForecastModel, classifier_model, event_features, init_parameters_)
from .prefix_attention import prefix_attention  # noqa: E402
from .run_folder import LoadedRun, RunFolderError, load_run, save_run  # noqa: E402

__all__ = ["BackboneConfig", "ClassifierConfig", "ClassifierEnsemble", "ClassifierModel", "DecisionConfig",
           "DecisionTransformer", "classifier_model",
           "EventConfig", "EventModel", "ForecastConfig", "ForecastModel", "LoadedRun", "RunFolderError",
           "event_features", "init_parameters_", "load_run", "prefix_attention",
           "save_run"]
