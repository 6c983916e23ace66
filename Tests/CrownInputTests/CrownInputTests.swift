import CrownInput
import Testing
