"""Restaurant datasets: typed models, the JSONL directory loader and the reviewer social graph."""

from dinecheck.dataset.loader import LoadReport, load_dataset
from dinecheck.dataset.models import Dataset, Restaurant, Review, ReviewUser
from dinecheck.dataset.social import SocialGraph

__all__ = ["Dataset", "LoadReport", "Restaurant", "Review", "ReviewUser", "SocialGraph", "load_dataset"]
